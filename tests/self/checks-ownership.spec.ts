// Whose data a read reaches (src/checks/ownership.ts), by DATA-OWN-USER-ONLY: user B's record ids answer
// 404 to user A (its reading; another refusal a warning, a record served a problem), and the records of user
// A's collections name the profile's user_id, or without one at least never mix users.
import { expect, test } from '@playwright/test';
import { foreignAnswer, type OwnedCollection, ownerProblems } from '../../src/checks/ownership.ts';

const PATH = '/v2/cycle/20001';

test("404 to user B's record is the suite's reading: nothing to say", () => {
  expect(foreignAnswer(404, PATH)).toBeUndefined();
});

test('another refusal is a warning naming its status; a served record is a problem naming the path', () => {
  expect(foreignAnswer(403, PATH)).toEqual({
    warning: "user B's record refused to user A with 403, not 404",
  });
  expect(foreignAnswer(200, PATH)).toEqual({ problem: "/v2/cycle/20001 (user B's) answers 200 to user A" });
});

/** Records on pages of two: the index's page and place on it, from 0 as servedAt gives them. */
const onPagesOfTwo = (index: number) => ({ page: Math.floor(index / 2), onPage: index % 2 });
const collection = (path: string, ...owners: unknown[]): OwnedCollection => ({
  path,
  records: owners.map((user_id, index) => ({ id: index, user_id })),
  servedAt: onPagesOfTwo,
});

test("records that all name the profile's user_id are no problem", () => {
  const { problems, owners } = ownerProblems(
    [collection('/v2/cycle', 10129, 10129), collection('/v2/recovery', 10129)],
    10129,
  );
  expect(problems).toEqual([]);
  expect([...owners]).toEqual(['10129']);
});

test('a record naming another user than the profile is a problem naming its collection, page and place', () => {
  const { problems, owners } = ownerProblems(
    [collection('/v2/cycle', 10129), collection('/v2/activity/sleep', 10129, 10129, 20002)],
    10129,
  );
  expect(problems).toEqual(["/v2/activity/sleep page 1, #0: user_id 20002, but the profile's is 10129"]);
  expect([...owners]).toEqual(['10129', '20002']);
});

test('a record without user_id is left to the schema checks', () => {
  const { problems, owners } = ownerProblems([collection('/v2/cycle', undefined, 10129)], 10129);
  expect(problems).toEqual([]);
  expect([...owners]).toEqual(['10129']);
});

test('without a profile user_id, one owner throughout is no problem and two are', () => {
  expect(
    ownerProblems([collection('/v2/cycle', 7, 7), collection('/v2/recovery', 7)], undefined).problems,
  ).toEqual([]);
  expect(
    ownerProblems([collection('/v2/cycle', 7), collection('/v2/recovery', 8)], undefined).problems,
  ).toEqual(['the collections mix records of users 7, 8']);
});
