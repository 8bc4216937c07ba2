import { routes } from '../../shared/routes';
import { defineHandler } from '../../shared/platform/http/handler';

/** Swagger UI over the generated document; its files come from docs/asset, never a CDN. */
export const handler = defineHandler(routes.docsPage, async ({ baseUrl }) => ({
  status: 200,
  contentType: 'text/html; charset=utf-8',
  text: `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Hotel Mapping API reference</title>
  <link rel="stylesheet" href="${baseUrl}/docs/swagger-ui.css">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="${baseUrl}/docs/swagger-ui-bundle.js"></script>
  <script>
    window.ui = SwaggerUIBundle({ url: '${baseUrl}/api/v1/openapi.json', dom_id: '#swagger-ui', deepLinking: true });
  </script>
</body>
</html>
`,
}));
