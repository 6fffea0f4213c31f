from fsm.cli import main

raise SystemExit(main())
