-- 0004: Palam games stored before the camp choice keep the rules they were played under
-- (engine option "edition" 1), so their move lists still replay exactly. Options are compact
-- JSON ('{"setup":"random"}'); Palam's only other option is "setup".
UPDATE games
SET options = REPLACE(options, '{"setup":', '{"edition":1,"setup":')
WHERE game = 'palam' AND options NOT LIKE '%"edition"%';
