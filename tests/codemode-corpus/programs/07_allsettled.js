const results = await Promise.allSettled([
  tools.weather.forecast({ city: "Paris" }),
  tools.weather.forecast({ city: "Atlantis" }),
]);
return results.map((r) => r.status);
