const issues = await tools.github.list_issues({ repo: "acme/app" });
const labels = new Set(issues.flatMap((i) => i.labels));
const counts = new Map();
for (const i of issues) counts.set(i.state, (counts.get(i.state) || 0) + 1);
return { labels: [...labels].sort(), open: counts.get("open"), closed: counts.get("closed") };
