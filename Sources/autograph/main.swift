import AutographCLI
AutographCLI.main()
