const issues = await tools.github.list_issues({ repo: "acme/app" });
return issues.slice().sort((a, b) => b.comments - a.comments).map((i) => i.number);
