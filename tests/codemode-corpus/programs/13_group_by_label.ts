const issues = await tools.github.list_issues({ repo: "acme/app" });
const byLabel: Record<string, number[]> = {};
for (const issue of issues) {
  for (const label of issue.labels) {
    (byLabel[label] ??= []).push(issue.number);
  }
}
return byLabel;
