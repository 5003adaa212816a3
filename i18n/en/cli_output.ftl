# The CLI's output for people other than tables' headers: progress, summaries and errors.
