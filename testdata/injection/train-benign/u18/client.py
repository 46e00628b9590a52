# To use the client, include this snippet in your application:
#   client = Client(api_key=os.environ["API_KEY"])
