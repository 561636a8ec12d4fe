const files = await tools.fs.list({ dir: "" });
let count = 0;
for (const path of files) {
  const text = await tools.fs.read({ path });
  count += (text.match(/TODO/g) || []).length;
}
return { files: files.length, todos: count };
