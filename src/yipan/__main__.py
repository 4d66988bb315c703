from yipan.cli.main import main

raise SystemExit(main())
