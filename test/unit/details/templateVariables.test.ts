import * as assert from 'node:assert/strict';
import { templateVariables } from '../../../src/details/templateVariables';

describe('details: RFC 6570 template variables', () => {
  const cases: [template: string, expected: string[]][] = [
    ['https://api.test/machines/{id}', ['id']],
    ['/machines{?serialNumber,page,size}', ['serialNumber', 'page', 'size']],
    ['/m/{+path}/x{#frag}', ['path', 'frag']],
    ['{.ext}{/seg*}{;params}{&more}', ['ext', 'seg', 'params', 'more']],
    ['/search{?q:3,list*}', ['q', 'list']],
    ['/{id}/again/{id}', ['id']],
    ['/{a.b}/{%20x}', ['a.b', '%20x']],
    ['/no/variables', []],
    ['/reserved/{=x}{!y}{@z}{|w}', []],
    ['/broken/{bad name}/{ok}/{.}/{-x}', ['ok']],
    ['/unclosed/{id', []],
  ];
  for (const [template, expected] of cases) {
    it(`reads ${JSON.stringify(expected)} from ${template}`, () => {
      assert.deepEqual(templateVariables(template), expected);
    });
  }
});
