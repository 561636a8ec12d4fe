const issues = await tools.github.list_issues({ repo: "acme/app" });
if (issues.length > 2) throw new Error("too many issues");
return issues;
