const when = new Date(Date.UTC(2026, 0, 2, 3, 4, 5));
return { when, year: when.getUTCFullYear() };
