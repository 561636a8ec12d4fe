async function readAll(paths) {
  return Promise.all(paths.map((path) => tools.fs.read({ path })));
}
const texts = await readAll(["src/a.ts", "src/b.ts"]);
return texts.reduce((n, t) => n + t.length, 0);
