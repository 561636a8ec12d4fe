function pick<T>(items: T[], index: number): T | undefined {
  return items[index];
}
const files = await tools.fs.list({ dir: "" });
return pick<string>(files, 2) ?? null;
