-- 0005: LPPG games stored before the two-step draw keep the rules they were played under
-- (engine option "edition" 1), so their move lists still replay exactly. LPPG had no option,
-- so their options are the empty JSON object.
UPDATE games SET options = '{"edition":1}' WHERE game = 'lppg' AND options = '{}';
