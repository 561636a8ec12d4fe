return await tools.github.delete_repo({ repo: "acme/app" });
