const cities = ["Paris", "Oslo", "Cairo"];
const results = await Promise.all(cities.map((city) => tools.weather.forecast({ city })));
return Object.fromEntries(results.map((r) => [r.city, r.tempC]));
