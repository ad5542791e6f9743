ALTER TABLE games DROP COLUMN IF EXISTS turn_mail, DROP COLUMN IF EXISTS turn_due;
DROP FUNCTION IF EXISTS turn_due(json);
DROP FUNCTION IF EXISTS turn_mail(json, int[], json, bigint, bigint);
