const issue = await tools.github.get_issue({ repo: "acme/app", number: 1 });
const copy = JSON.parse(JSON.stringify(issue));
copy.title = copy.title.toUpperCase();
return { original: issue.title, copy: copy.title };
