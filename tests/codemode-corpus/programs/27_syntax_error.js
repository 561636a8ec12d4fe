const issues = await tools.github.list_issues({ repo: "acme/app" };
return issues;
