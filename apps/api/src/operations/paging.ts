import { answer, defineOperation, errorAnswers, jsonBody } from '@firebreak/http';
import {
  ContactMethod,
  ContactMethodActionResult,
  ContactMethodList,
  CreateContactMethodInput,
  NotificationRules,
  NotificationRulesInput,
  PagingMethods,
  VerifyContactMethodInput,
} from '@firebreak/schema';
import { z } from 'zod';

/** `{id}` of a user: a UUID, or `me` for whoever asks. */
const OwnerParams = z.object({
  id: z
    .union([z.literal('me'), z.guid().toLowerCase()], {
      error: (issue) => `No user "${String(issue.input)}".`,
    })
    .meta({ description: 'The user’s UUID, or `me`' }),
});

const ContactParams = OwnerParams.extend({
  cm_id: z
    .guid({ error: (issue) => `No contact method "${String(issue.input)}".` })
    .toLowerCase()
    .meta({ description: 'The contact method’s UUID' }),
});

const whose =
  'Everyone reads and changes their own (`me`); admins anyone’s. Another person’s id is 404 to a non-admin.';

const codeLimits =
  'One code a minute per contact method and 10 an hour per person; beyond that, or after 5 wrong tries within the hour, 429 with Retry-After.';

const rulesPath = '/api/v1/users/{id}/notification-rules';
const methodsPath = '/api/v1/users/{id}/contact-methods';
const methodPath = `${methodsPath}/{cm_id}`;

/** Personal paging (docs/api.md#personal-paging, docs/paging.md). */
export const pagingOperations = {
  methods: defineOperation({
    method: 'get',
    path: '/api/v1/paging/methods',
    access: 'viewer',
    summary: 'The paging methods this server has configured, and the VAPID public key for push',
    responses: { 200: answer('What this server can send', PagingMethods) },
  }),
  getRules: defineOperation({
    method: 'get',
    path: rulesPath,
    access: 'viewer',
    summary: 'A person’s notification rules, in order (the default when they set none)',
    description: whose,
    request: { params: OwnerParams },
    responses: { 200: answer('The rules', NotificationRules), ...errorAnswers(403, 404) },
  }),
  putRules: defineOperation({
    method: 'put',
    path: rulesPath,
    access: 'viewer',
    summary: 'Replace a person’s notification rules',
    description: `${whose} Each rule’s method must be configured on this server and have a verified contact method (chat: a chat id, delay 0); otherwise 400 names the rule and nothing changes. An empty list restores the default.`,
    request: { params: OwnerParams, body: jsonBody(NotificationRulesInput) },
    responses: { 200: answer('The rules now', NotificationRules), ...errorAnswers(400, 403, 404, 415) },
  }),
  listContacts: defineOperation({
    method: 'get',
    path: methodsPath,
    access: 'viewer',
    summary: 'A person’s contact methods',
    description: whose,
    request: { params: OwnerParams },
    responses: { 200: answer('The contact methods', ContactMethodList), ...errorAnswers(403, 404) },
  }),
  addContact: defineOperation({
    method: 'post',
    path: methodsPath,
    access: 'viewer',
    summary:
      'Add a contact method: an e-mail address, an SMS or voice number, or this browser’s push subscription',
    description: `${whose} E-mail, SMS and voice start unverified. A push subscription is verified at once and only the person’s own browser session may add it (docs/paging.md#verification).`,
    request: { params: OwnerParams, body: jsonBody(CreateContactMethodInput) },
    responses: { 201: answer('The contact method', ContactMethod), ...errorAnswers(400, 403, 404, 409, 415) },
  }),
  removeContact: defineOperation({
    method: 'delete',
    path: methodPath,
    access: 'viewer',
    summary: 'Remove a contact method (and the rules that name it)',
    description: whose,
    request: { params: ContactParams },
    responses: { 204: answer('Removed'), ...errorAnswers(403, 404) },
  }),
  sendCode: defineOperation({
    method: 'post',
    path: `${methodPath}/send-code`,
    access: 'viewer',
    summary: 'Send a 6-digit verification code through the method (10 minutes, 5 tries an hour)',
    description: `${whose} ${codeLimits}`,
    request: { params: ContactParams },
    responses: {
      202: answer('The code is on its way', ContactMethodActionResult),
      ...errorAnswers(400, 403, 404, 409, 429),
    },
  }),
  verify: defineOperation({
    method: 'post',
    path: `${methodPath}/verify`,
    access: 'viewer',
    summary: 'Verify a contact method with the code it received',
    description: `${whose} A wrong, expired or exhausted code is 400 and says which.`,
    request: { params: ContactParams, body: jsonBody(VerifyContactMethodInput) },
    responses: {
      200: answer('The verified contact method', ContactMethod),
      ...errorAnswers(400, 403, 404, 415),
    },
  }),
  test: defineOperation({
    method: 'post',
    path: `${methodPath}/test`,
    access: 'viewer',
    summary: 'Send a test notification through a verified contact method',
    description: whose,
    request: { params: ContactParams },
    responses: {
      202: answer('The test is on its way', ContactMethodActionResult),
      ...errorAnswers(400, 403, 404, 409),
    },
  }),
};

const TokenParams = z.object({ token: z.string().meta({ description: 'The acknowledge link’s token' }) });
const html = (description: string) => ({
  description,
  content: { 'text/html': { schema: z.string().meta({ description: 'A small HTML page' }) } },
});

/** The one-click acknowledge link of a page (docs/paging.md#acknowledge-links). */
export const pageLinkOperations = {
  view: defineOperation({
    method: 'get',
    path: '/api/v1/page/{token}',
    access: 'public',
    summary: 'An acknowledge link: the incident and one Acknowledge button. Never acknowledges by itself',
    description:
      'The token is the credential (signed, for one person and incident, 24 hours). Mail scanners fetch every link of a message, so this GET only shows the page; the button POSTs.',
    request: { params: TokenParams },
    responses: {
      200: html('The incident and the button'),
      404: html('The link has expired or is not valid'),
    },
  }),
  acknowledge: defineOperation({
    method: 'post',
    path: '/api/v1/page/{token}',
    access: 'public',
    summary: 'Acknowledge the incident as the person the link was made for',
    description:
      'The button of the link’s page (a form, answered in HTML) or a push notification’s action (`?via=push`, answered in JSON). No body is read.',
    request: {
      params: TokenParams,
      query: z.object({ via: z.enum(['link', 'push']).optional() }),
    },
    responses: {
      200: {
        description: 'Acknowledged, or taken by someone first: `{outcome, incident}` (HTML for a form)',
        content: {
          'application/json': {
            schema: z.object({
              outcome: z.enum(['acknowledged', 'already']),
              status: z.string().optional(),
              /** With `already`: who took the incident first, when known. */
              by: z.string().nullable().optional(),
              incident: z.object({ id: z.uuid(), number: z.number().int(), title: z.string() }),
            }),
          },
          'text/html': { schema: z.string() },
        },
      },
      ...errorAnswers(404),
    },
  }),
};
