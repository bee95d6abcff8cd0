"""The job: the pipeline (read -> plan -> click -> re-read, in rounds), the coach on the live
board, `watch`, the demo and the command line."""
