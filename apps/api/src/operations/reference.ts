import { defineOperation } from '@firebreak/http';

/** The API's description of itself: the OpenAPI document and the reference page that renders it. */
export const referenceOperations = {
  document: defineOperation({
    method: 'get',
    path: '/api/v1/openapi.json',
    access: 'public',
    summary: 'This OpenAPI 3.1 document, generated from the routes themselves',
    responses: { 200: { description: 'The document', content: { 'application/json': { schema: {} } } } },
  }),
  page: defineOperation({
    method: 'get',
    path: '/api/v1/docs',
    access: 'public',
    summary: 'The API reference: this document rendered as a web page',
    responses: {
      200: { description: 'An HTML page', content: { 'text/html': { schema: { type: 'string' } } } },
    },
  }),
  script: defineOperation({
    method: 'get',
    path: '/api/v1/docs/scalar.js',
    access: 'public',
    summary: 'The reference page’s script, served here so the page needs no CDN',
    responses: {
      200: { description: 'JavaScript', content: { 'text/javascript': { schema: { type: 'string' } } } },
    },
  }),
};
