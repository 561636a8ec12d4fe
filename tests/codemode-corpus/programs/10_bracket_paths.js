const scene = await tools["2d_get_scene"]();
const id = await tools.context7["resolve-library-id"]({ libraryName: "react" });
return { count: scene.objects.length, id };
