from cardindex.cli import main

raise SystemExit(main())
