const files = (await tools.fs.list({ dir: "src/" })) as string[];
const first = files[0]!;
const text = (await tools.fs.read({ path: first })) as string;
return text.split("\n")[0]!.length;
