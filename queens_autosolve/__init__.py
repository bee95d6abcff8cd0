"""queens-autosolve: solve the LinkedIn Queens puzzle straight off the screen.

One namespace, one stage per subpackage, arrows pointing down: `autosolve` (the job: pipeline,
coach, command line) uses `actuator` (click plans and clicks), `vision` (pixels to a board
reading), `capture` (the desktop: windows, pixels, pointer) and `solver` (puzzles to solutions);
`pages` serves the practice page and the two-player game page; `twoplayer` holds the two-player
games; `bench` times the solver against its peers.
"""
