try {
  await tools.fs.read({ path: "nope.txt" });
  return "unexpected";
} catch (err) {
  return `failed: ${err.message}`;
}
