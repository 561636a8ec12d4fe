const issues = await tools.github.list_issues({ repo: "acme/app", state: "open" });
const targets = issues.filter((i) => i.comments > 3);
const done: number[] = [];
for (const issue of targets) {
  const r = await tools.github.add_label({ repo: "acme/app", number: issue.number, label: "hot" });
  if (r.ok) done.push(r.number);
}
return done;
