print('ask')
