// The page of `tumble serve`.
