// Starts Swagger UI over the API's OpenAPI document. A file of its own, not an inline script, so
// the page needs no 'unsafe-inline'. The document's address is a path under the page's <base>.
window.ui = SwaggerUIBundle({ url: new URL('api/v1/openapi.json', document.baseURI).href, dom_id: '#swagger-ui', deepLinking: true });
