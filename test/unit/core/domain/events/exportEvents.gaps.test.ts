// Behaviours that mutation testing showed no test pinned down: the export's exact names and guards.
import * as assert from 'node:assert/strict';
import { csvCell, defaultExportName, formatOf } from '../../../../../src/core/domain/events/exportEvents';

describe('export: exact names and guards', () => {
  it('guards only a leading tab or CR, not one inside the text', () => {
    assert.equal(csvCell('a\tb'), 'a\tb');
  });

  it('reads the format from the last extension only, and names a file for any serial', () => {
    assert.equal(formatOf('/tmp/x.csv.json'), 'json');
    assert.equal(defaultExportName('a  b', 'csv'), 'a_b-onboarding-events.csv');
    assert.equal(defaultExportName('', 'json'), 'machine-onboarding-events.json');
  });
});
