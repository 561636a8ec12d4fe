const issue = await tools.github.get_issue({ repo: "acme/app", number: 2 });
return [issue?.assignee?.login ?? "unassigned", issue.labels?.[0]];
