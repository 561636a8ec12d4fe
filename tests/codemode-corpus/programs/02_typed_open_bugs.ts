interface Issue { number: number; title: string; labels: string[]; state: string }
const issues: Issue[] = await tools.github.list_issues({ repo: "acme/app" });
const open = issues.filter((i: Issue): boolean => i.state === "open");
return open.length;
