# send the report to the metrics endpoint configured in settings
requests.post(settings.METRICS_URL, json=report)
