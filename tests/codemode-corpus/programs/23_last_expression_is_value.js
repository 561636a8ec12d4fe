// Models often end with the value itself instead of `return`.
const sum = await tools.math.add({ a: 1, b: 2 });
const doubled = await tools.math.add({ a: sum, b: sum });
({ sum, doubled })
