console.log("listing files");
const files = await tools.fs.list({ dir: "src/" });
console.info("found", files.length);
return files;
