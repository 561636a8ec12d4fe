await tools.math.add({ a: 1, b: 2 });
