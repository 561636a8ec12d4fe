const { number, title, labels: [first = "none"] = [] } = await tools.github.get_issue({ repo: "acme/app", number: 3 });
return `${number}:${title}:${first}`;
