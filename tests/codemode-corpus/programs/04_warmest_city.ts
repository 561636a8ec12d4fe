type Forecast = { city: string; tempC: number };
const cities: string[] = ["Paris", "Oslo", "Cairo"];
const all = (await Promise.all(cities.map((city) => tools.weather.forecast({ city })))) as Forecast[];
const warmest = all.reduce((a, b) => (b.tempC > a.tempC ? b : a));
return warmest.city;
