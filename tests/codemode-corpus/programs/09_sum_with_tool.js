let total = 0;
for (const n of [1, 2, 3, 4]) {
  total = await tools.math.add({ a: total, b: n });
}
return total;
