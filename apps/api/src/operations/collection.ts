import { answer, defineOperation, errorAnswers, jsonBody } from '@firebreak/http';
import { z } from 'zod';
import { IdParams } from './params';

/**
 * The five operations of a configuration collection: list and create on `path`, read, change and
 * delete on `path/{id}`. Everyone reads; admins write.
 */
export function collectionOperations<
  Item extends z.ZodType,
  Create extends z.ZodType,
  Update extends z.ZodType,
  Key extends string,
>(path: string, listKey: Key, noun: string, schemas: { item: Item; create: Create; update: Update }) {
  const byId = `${path}/{id}`;
  return {
    list: defineOperation({
      method: 'get',
      path,
      access: 'viewer',
      summary: `List ${noun}s`,
      responses: { 200: answer('All of them', z.object({ [listKey]: z.array(schemas.item) })) },
    }),
    create: defineOperation({
      method: 'post',
      path,
      access: 'admin',
      summary: `Create a ${noun}`,
      request: { body: jsonBody(schemas.create) },
      responses: { 201: answer('Created', schemas.item), ...errorAnswers(400, 403, 409, 415) },
    }),
    get: defineOperation({
      method: 'get',
      path: byId,
      access: 'viewer',
      summary: `One ${noun}`,
      request: { params: IdParams },
      responses: { 200: answer('Found', schemas.item), ...errorAnswers(404) },
    }),
    update: defineOperation({
      method: 'patch',
      path: byId,
      access: 'admin',
      summary: `Change a ${noun}`,
      request: { params: IdParams, body: jsonBody(schemas.update) },
      responses: { 200: answer('Changed', schemas.item), ...errorAnswers(400, 403, 404, 409, 415) },
    }),
    remove: defineOperation({
      method: 'delete',
      path: byId,
      access: 'admin',
      summary: `Delete a ${noun}`,
      request: { params: IdParams },
      responses: { 204: answer('Deleted'), ...errorAnswers(403, 404, 409) },
    }),
  };
}
