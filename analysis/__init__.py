"""Analysis of the results store: statistics, tables and figures."""
