// A tool plugin for clawgate: one tool, configured under plugins.entries["weather-tool"].config.
// Plain CommonJS, so it loads as it is; `definePlugin` from 'clawgate/plugin-sdk' would only add types.
//
// The forecasts come from a small deterministic table (the same city gives the same forecast), so the example
// runs without a network or an API key. A real plugin would call its weather service in `execute`, with
// `ctx.signal` passed on so that an aborted run stops the request.

const SKIES = ['sunny', 'partly cloudy', 'cloudy', 'light rain', 'windy'];

/** Today's forecast for a city: a temperature in °C and a sky, derived from the name. */
function forecastFor(city) {
  let hash = 0;
  for (const ch of city.toLowerCase()) hash = (hash * 31 + ch.codePointAt(0)) >>> 0;
  return { celsius: 8 + (hash % 20), sky: SKIES[hash % SKIES.length] };
}

module.exports = {
  register(api) {
    api.registerTool({
      name: 'get_weather',
      description: "Today's weather forecast for a city",
      parameters: {
        type: 'object',
        properties: { city: { type: 'string', minLength: 1, description: 'The city, e.g. "Lisbon"' } },
        additionalProperties: false,
      },
      execute(args, ctx) {
        // Read at each call: a config change applies to the next call without reloading the plugin.
        const config = api.config();
        const city = args.city || config.defaultCity;
        if (!city) return { error: 'name a city (no defaultCity is configured)' };
        const { celsius, sky } = forecastFor(city);
        const imperial = config.units === 'imperial';
        const temperature = imperial ? `${Math.round((celsius * 9) / 5 + 32)}°F` : `${celsius}°C`;
        ctx.logger.info(`forecast for ${city} asked by agent ${ctx.agentId}`);
        api.count('forecasts');
        return { city, temperature, sky };
      },
    });
  },
};
