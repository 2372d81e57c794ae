Console.Error.WriteLine("MockNntpServer: not built yet");
return 2;
