const f = await tools.weather.forecast({ city: "Atlantis" });
return f.tempC;
