const config = { retries: 2, cities: ["Oslo"] } as const satisfies { retries: number; cities: readonly string[] };
const out = [];
for (let attempt = 0; attempt < config.retries; attempt++) {
  out.push((await tools.weather.forecast({ city: config.cities[0] })).tempC);
}
return out;
