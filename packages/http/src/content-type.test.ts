import { describe, expect, it } from 'vitest';
import { isJsonContentType, mediaTypeOf } from './content-type';

describe('isJsonContentType', () => {
  it('accepts application/json and +json types, with parameters and in any case', () => {
    for (const header of [
      'application/json',
      'application/json; charset=utf-8',
      'Application/JSON;charset=UTF-8',
      ' application/json ',
      'application/vnd.api+json',
      'application/merge-patch+json; charset=utf-8',
      'application/vnd.pagerduty+json;version=2',
    ]) {
      expect(isJsonContentType(header), header).toBe(true);
    }
  });

  it('refuses other types, even when "json" or "+json" appears somewhere in the header', () => {
    for (const header of [
      undefined,
      '',
      'application/x-www-form-urlencoded; x=+json',
      'application/x-www-form-urlencoded;+json',
      'multipart/form-data; boundary=+json',
      'text/plain; x=application/json',
      'text/json',
      'application/jsonp',
      'application/json-seq',
      'application/+json',
      'application/json/x',
      'xapplication/json',
    ]) {
      expect(isJsonContentType(header), String(header)).toBe(false);
    }
  });

  it('names the media type without its parameters', () => {
    expect(mediaTypeOf('Text/Plain; charset=UTF-8')).toBe('text/plain');
    expect(mediaTypeOf(undefined)).toBe('');
  });
});
