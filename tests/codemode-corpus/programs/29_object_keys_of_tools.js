return { namespaces: Object.keys(tools).sort(), github: Object.keys(tools.github).sort() };
