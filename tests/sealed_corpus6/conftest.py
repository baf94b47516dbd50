collect_ignore_glob = ["*"]
