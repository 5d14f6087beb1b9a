-- Reason: placeholder in the 'challenge' branch only: number 0018 belongs to another branch's
-- migration, and the runner refuses gaps. Delete this file when that branch is merged.

SELECT 1;
