const issues = await tools.github.list_issues({ repo: "acme/app", state: "open" });
const bugs = issues.filter((i) => i.labels.includes("bug"));
return bugs.map((b) => `#${b.number} ${b.title}`);
