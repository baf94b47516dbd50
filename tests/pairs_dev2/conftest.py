collect_ignore = ["repo"]
